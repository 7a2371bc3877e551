/** Stage operations: not built yet. */
import type { Resource } from '../../shared/operations';

export const stageResource: Resource = { value: 'stage', name: 'Stage', operations: [] };
