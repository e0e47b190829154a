import { Injectable } from '@nestjs/common';
import { PylonError } from '@pylon/contracts';
import { Organization, type Page, type PageRequest } from '@pylon/db';
import { OrganizationRepository } from './repositories/organization.repository';

/** The tenants: created and listed by the operator, and looked up by every admin route that names one. */
@Injectable()
export class OrganizationsService {
  constructor(private readonly orgs: OrganizationRepository) {}

  create(name: string): Promise<Organization> {
    return this.orgs.create(name);
  }

  list(page: PageRequest): Promise<Page<Organization>> {
    return this.orgs.list(page);
  }

  /** The organisation, or 404 `not_found`. */
  async require(orgId: string): Promise<Organization> {
    const org = await this.orgs.findById(orgId);
    if (!org) throw PylonError.notFound('no such organisation');
    return org;
  }
}
