import { Foundation1763700000000 } from './1763700000000-foundation';

/** In order. A new migration is added here and nowhere else. */
export const MIGRATIONS = [Foundation1763700000000];
