import { Injectable } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { ChangeAnnouncements } from './change-announcements';
import { MODEL_PRICE_CHANGES_CHANNEL } from './migrations/1766350000000-model-price-changes';

/** Announcements of changed model prices (a trigger on org_model_prices), each naming the organisation. */
@Injectable()
export class ModelPriceChanges extends ChangeAnnouncements {
  constructor(config: PylonConfig) {
    super(config, MODEL_PRICE_CHANGES_CHANNEL, 'model prices');
  }
}
