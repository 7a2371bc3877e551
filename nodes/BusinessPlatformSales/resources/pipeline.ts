/** Pipeline operations: not built yet. */
import type { Resource } from '../../shared/operations';

export const pipelineResource: Resource = { value: 'pipeline', name: 'Pipeline', operations: [] };
