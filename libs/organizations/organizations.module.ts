import { Global, Module } from '@nestjs/common';
import { OrganizationsService } from './organizations.service';

/** The tenants, for the API and the worker. Needs the global database module. */
@Global()
@Module({ providers: [OrganizationsService], exports: [OrganizationsService] })
export class OrganizationsModule {}
