import { Module } from '@nestjs/common';
import { VideoController } from './video.controller';
import { VideoGenerationsService } from './video-generations.service';

@Module({ controllers: [VideoController], providers: [VideoGenerationsService] })
export class VideoApiModule {}
