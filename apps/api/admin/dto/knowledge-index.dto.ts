import { ApiProperty } from '@nestjs/swagger';

export class VectorIndexView {
  @ApiProperty({ description: 'The partial HNSW index of this organisation’s chunks.' }) name!: string;
  @ApiProperty({ enum: ['building', 'ready', 'failed'] }) status!: 'building' | 'ready' | 'failed';
  @ApiProperty({ description: 'Chunks the organisation had when the build started.' }) chunks_at_start!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'How long the build took; null until it is ready.' }) build_ms!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last build failed (it is tried again 10 minutes later).' }) error!:
    string | null;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

export class KnowledgeIndexView {
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ description: 'Chunks of the organisation’s ready documents.' }) chunks!: number;
  @ApiProperty({ description: 'KB_EXACT_SEARCH_MAX_CHUNKS: up to this size an organisation is searched exactly.' }) exact_search_max_chunks!: number;
  @ApiProperty({ enum: ['exact', 'own_index'], description: '`own_index` once the organisation is past the threshold and its index is ready.' })
  searched_by!: 'exact' | 'own_index';
  @ApiProperty({ type: VectorIndexView, nullable: true, description: 'Its own vector index; null if it never needed one.' })
  index!: VectorIndexView | null;
}
