/** Activity operations: not built yet. */
import type { Resource } from '../../shared/operations';

export const activityResource: Resource = { value: 'activity', name: 'Activity', operations: [] };
