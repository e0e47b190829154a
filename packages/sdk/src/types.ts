import type { components, paths } from './schema.js';

/** Every schema of the OpenAPI document, by name (generated: src/schema.d.ts). */
export type Schemas = components['schemas'];

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Operation<P extends keyof paths, M extends string> = M extends keyof paths[P] ? NonNullable<paths[P][M]> : never;

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends string> = Json<NonNullable<Operation<P, M> extends { requestBody?: infer R } ? R : never>>;

/** The JSON an operation answers on success. */
export type ResponseBody<P extends keyof paths, M extends string> =
  Operation<P, M> extends { responses: infer R } ? Json<R[200 & keyof R]> | Json<R[201 & keyof R]> | Json<R[202 & keyof R]> : never;

/** The query parameters an operation takes. */
export type QueryParams<P extends keyof paths, M extends string> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** A page of a list: its items and the cursor of the next page (null on the last). */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}
