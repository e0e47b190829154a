import { Module } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { createVideoProvider } from '@pylon/video-providers';
import { ConfiguredVideoProvider } from './video-provider.token';

/** The video provider chosen by VIDEO_PROVIDER (`local` renders with ffmpeg; `luma` is Dream Machine). */
@Module({
  providers: [
    {
      provide: ConfiguredVideoProvider,
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
  exports: [ConfiguredVideoProvider],
})
export class VideoModule {}
