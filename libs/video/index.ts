export { toGenerationView, generationEvent, type VideoGenerationView } from './generation-view';
export { ConfiguredVideoProvider } from './video-provider.token';
export { VideoModule } from './video.module';
export { VideoGenerationsService, GenerationNotFoundError, type GenerationRequest } from './video-generations.service';
