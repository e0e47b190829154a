import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AgentRepository } from '@pylon/agents';
import type { AgentVersion } from '@pylon/db';

const VERSION_CACHE_SIZE = 1_000;

/** Agent versions as runs read them: versions never change once created, so each is read from the database once per process. */
@Injectable()
export class AgentVersions {
  private readonly cache = new LRUCache<string, AgentVersion>({ max: VERSION_CACHE_SIZE });

  constructor(private readonly agents: AgentRepository) {}

  async find(orgId: string, versionId: string): Promise<AgentVersion | null> {
    const key = `${orgId}/${versionId}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const version = await this.agents.findVersion(orgId, versionId);
    if (version) this.cache.set(key, version);
    return version;
  }
}
