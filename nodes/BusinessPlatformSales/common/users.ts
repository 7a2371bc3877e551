/** What the Sales resources and pickers share. */

import type { IDataObject } from 'n8n-workflow';

/** A sales user's first and last name, as the platform embeds users (owners, assignees, contact and deal info). */
export const userName = (user: IDataObject): string =>
	`${String(user.first_name ?? '')} ${String(user.last_name ?? '')}`.trim();
