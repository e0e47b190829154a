import type { LlmTurn } from '@pylon/contracts';
import type { LlmProvider, LlmRequest } from '../llm-provider';

/** A provider behind the network: it takes any model name, answers outside the process, and lists no models of its own. */
export abstract class HostedProvider implements LlmProvider {
  abstract readonly name: string;
  abstract readonly configured: boolean;
  readonly answersInProcess = false;
  readonly models = null;

  supportsModel(model: string): boolean {
    return model.length > 0;
  }

  abstract contextTokens(model: string): number;
  abstract generate(request: LlmRequest): Promise<LlmTurn>;
}
