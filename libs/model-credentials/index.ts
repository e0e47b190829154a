export { ModelCredentialsModule } from './model-credentials.module';
export {
  ModelCredentialsService,
  ModelKeyMissingError,
  type KeyCheck,
  type KeySource,
  type ModelCredential,
  type ModelKey,
  type ProviderAccess,
} from './model-credentials.service';
export { ModelCredentialRepository, type StoredModelCredential } from './repositories/model-credential.repository';
export { keyHint } from './key-hint';
