import { Global, Module } from '@nestjs/common';
import { OrganizationsService } from './organizations.service';
import { OrganizationRepository } from './repositories/organization.repository';

/** The tenants, for the API and the worker. Needs the global database module. */
@Global()
@Module({ providers: [OrganizationsService, OrganizationRepository], exports: [OrganizationsService] })
export class OrganizationsModule {}
