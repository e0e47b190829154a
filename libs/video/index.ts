export { toGenerationView, generationEvent, type VideoGenerationView } from './generation-view';
export { VIDEO_BACKEND } from './video-provider.token';
export { VideoModule } from './video.module';
export { VideoGenerationsService, GenerationNotFoundError, type GenerationRequest } from './video-generations.service';
export { VideoGenerationRepository, type NewVideoGeneration, type VideoOutcome } from './repositories/video-generation.repository';
