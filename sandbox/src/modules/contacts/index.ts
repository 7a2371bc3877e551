/** Contacts (persons and organizations) and contact labels — /v1/crm/contacts… */
import { stampBulk, type Module } from '../../module';
import {
	deleteContact,
	getContactRoute,
	getContacts,
	listContacts,
	patchContact,
	patchContacts,
	postContact,
	putContact,
} from './contacts';
import { deleteLabel, getLabel, listLabels, postLabel, putLabel } from './labels';
import { generateContacts, seedContacts } from './seed';

const CONTACTS = '/v1/crm/contacts';
const LABELS = '/v1/crm/contacts/labels';

export const contacts: Module = {
	name: 'contacts',
	seed: seedContacts,
	bulk: {
		contacts: (env, tenant, count, options) => {
			const added = generateContacts(env, tenant, count);
			stampBulk(env, tenant.contacts.values(), added, options);
			tenant.contacts.touch();
			return added;
		},
	},
	// The router prefers static segments, so /contacts/labels is never read as /contacts/:id.
	paths: {
		[LABELS]: { GET: listLabels, POST: postLabel },
		[`${LABELS}/:id`]: { GET: getLabel, PUT: putLabel, DELETE: deleteLabel },
		[CONTACTS]: { GET: listContacts, POST: postContact, PATCH: patchContacts },
		[`${CONTACTS}/multiple`]: { POST: getContacts },
		[`${CONTACTS}/:id`]: {
			GET: getContactRoute,
			PATCH: patchContact,
			PUT: putContact,
			DELETE: deleteContact,
		},
	},
};
