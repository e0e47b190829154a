import { Module } from '@nestjs/common';
import { VideoController } from './video.controller';
import { VideoModule } from '@pylon/video';

@Module({ imports: [VideoModule], controllers: [VideoController] })
export class VideoApiModule {}
