/** Deal operations: not built yet. */
import type { Resource } from '../../shared/operations';

export const dealResource: Resource = { value: 'deal', name: 'Deal', operations: [] };
