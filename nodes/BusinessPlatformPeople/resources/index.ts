/** The resources of the People node, one file each. */
import type { Resource } from '../../shared/operations';

export const PEOPLE_RESOURCES: Resource[] = [];
