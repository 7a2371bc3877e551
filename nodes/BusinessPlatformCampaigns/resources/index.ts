/** The resources of the Campaigns node, one file each. */
import type { Resource } from '../../shared/operations';

export const CAMPAIGNS_RESOURCES: Resource[] = [];
