import { Module } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { LLM_PROVIDERS, LlmService } from './llm.service';
import { LocalLlmProvider } from './providers/local.provider';
import { modelProviders } from './providers/model-providers';

@Module({
  providers: [LocalLlmProvider, { provide: LLM_PROVIDERS, inject: [PylonConfig, LocalLlmProvider], useFactory: modelProviders }, LlmService],
  exports: [LlmService],
})
export class LlmModule {}
