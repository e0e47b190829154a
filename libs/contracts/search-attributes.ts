import { SearchAttributeType, defineSearchAttributeKey, type SearchAttributePair } from '@temporalio/common';
import { SEARCH_ATTRIBUTES } from './temporal-names';

export const ORG_ID_KEY = defineSearchAttributeKey(SEARCH_ATTRIBUTES.orgId, SearchAttributeType.KEYWORD);
export const RESOURCE_ID_KEY = defineSearchAttributeKey(SEARCH_ATTRIBUTES.resourceId, SearchAttributeType.KEYWORD);

/** The attributes every Pylon workflow carries, so an operator can filter by org and resource in the UI. */
export function pylonSearchAttributes(orgId: string, resourceId: string): SearchAttributePair[] {
  return [
    { key: ORG_ID_KEY, value: orgId },
    { key: RESOURCE_ID_KEY, value: resourceId },
  ];
}
