import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PylonEvent } from '../entities';

@Injectable()
export class EventRepository {
  constructor(private readonly db: DataSource) {}

  listForResource(orgId: string, resourceId: string): Promise<PylonEvent[]> {
    return this.db.getRepository(PylonEvent).find({ where: { orgId, resourceId }, order: { createdAt: 'ASC' } });
  }
}
