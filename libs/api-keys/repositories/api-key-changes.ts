import { Injectable } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { ChangeAnnouncements, API_KEY_CHANGES_CHANNEL } from '@pylon/db';

/**
 * Announcements of changed API keys (a trigger on api_keys), each naming the key: ApiKeyService caches a
 * key only while they are heard, so a key revoked, rolled or limited through any replica is forgotten by all.
 */
@Injectable()
export class ApiKeyChanges extends ChangeAnnouncements {
  constructor(config: PylonConfig) {
    super(config, API_KEY_CHANGES_CHANNEL, 'API keys');
  }
}
