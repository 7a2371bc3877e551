/** Record operations: not built yet. */
import type { Resource } from '../../shared/operations';

export const recordResource: Resource = { value: 'record', name: 'Record', operations: [] };
