import { Injectable } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { ChangeAnnouncements, MODEL_PRICE_CHANGES_CHANNEL } from '@pylon/db';

/** Announcements of changed model prices (a trigger on org_model_prices), each naming the organisation. */
@Injectable()
export class ModelPriceChanges extends ChangeAnnouncements {
  constructor(config: PylonConfig) {
    super(config, MODEL_PRICE_CHANGES_CHANNEL, 'model prices');
  }
}
