import { Module } from '@nestjs/common';
import { LlmService } from './llm.service';
import { LocalLlmProvider } from './providers/local.provider';
import { OpenAiLlmProvider } from './providers/openai.provider';

@Module({
  providers: [LocalLlmProvider, OpenAiLlmProvider, LlmService],
  exports: [LlmService],
})
export class LlmModule {}
