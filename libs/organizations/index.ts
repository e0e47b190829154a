export { OrganizationsService } from './organizations.service';
export { OrganizationsModule } from './organizations.module';
export { OrganizationRepository } from './repositories/organization.repository';
