export { ApiError } from '@pylon/contracts';
