export { OrganizationsService } from './organizations.service';
export { OrganizationsModule } from './organizations.module';
