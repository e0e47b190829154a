import { Module } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { createVideoProvider } from '@pylon/video-providers';
import { LedgerModule } from '@pylon/ledger';
import { LimitsModule } from '@pylon/limits';
import { VIDEO_BACKEND } from './video-provider.token';
import { VideoGenerationsService } from './video-generations.service';

import { VideoGenerationRepository } from './repositories/video-generation.repository';

/**
 * Video generation's rules (VideoGenerationsService), for the API and the worker, and the video provider
 * chosen by VIDEO_PROVIDER (`local` renders with ffmpeg; `luma` is Dream Machine). Needs the global
 * config, database and Temporal client modules.
 */
@Module({
  imports: [LimitsModule, LedgerModule],
  providers: [
    VideoGenerationsService,
    VideoGenerationRepository,
    {
      provide: VIDEO_BACKEND,
      inject: [PylonConfig],
      useFactory: (config: PylonConfig) =>
        createVideoProvider({
          provider: config.videoProvider,
          lumaApiKey: config.lumaApiKey,
          lumaBaseUrl: config.lumaBaseUrl,
          mediaDir: config.mediaDir,
          localRenderSeconds: config.localRenderSeconds,
          timeoutMs: config.videoProviderTimeoutMs,
        }),
    },
  ],
  exports: [VIDEO_BACKEND, VideoGenerationsService],
})
export class VideoModule {}
