/** The People Trigger's events, in the order of its Event dropdown (the first is the default). */
import type { PollEvent } from '../../shared/polling/model';
import { journalEntryPosted } from './journalEntryPosted';
import { journalEntryReverted } from './journalEntryReverted';
import { payrunCreated } from './payrunCreated';
import { payrunPaid } from './payrunPaid';
import { payrunProcessed } from './payrunProcessed';
import { payrunUpdated } from './payrunUpdated';
import { paystubCreated } from './paystubCreated';
import { userCreated } from './userCreated';

export const PEOPLE_EVENTS: PollEvent[] = [
	payrunCreated,
	payrunUpdated,
	payrunProcessed,
	payrunPaid,
	journalEntryPosted,
	journalEntryReverted,
	paystubCreated,
	userCreated,
];
