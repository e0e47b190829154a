import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Organization, Page, PageRequest, paginate } from '@pylon/db';

@Injectable()
export class OrganizationRepository {
  constructor(private readonly db: DataSource) {}

  async create(name: string): Promise<Organization> {
    const org = this.db.getRepository(Organization).create({ id: randomUUID(), name, createdAt: new Date() });
    return this.db.getRepository(Organization).save(org);
  }

  findById(orgId: string): Promise<Organization | null> {
    return this.db.getRepository(Organization).findOneBy({ id: orgId });
  }

  list(page: PageRequest): Promise<Page<Organization>> {
    return paginate(this.db.getRepository(Organization).createQueryBuilder('org'), page);
  }
}
