/** Table operations: not built yet. */
import type { Resource } from '../../shared/operations';

export const tableResource: Resource = { value: 'table', name: 'Table', operations: [] };
