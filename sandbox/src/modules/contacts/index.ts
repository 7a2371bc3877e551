/** Contacts (persons and organizations) and contact labels — /v1/crm/contacts… */
import { addRoutes, type Module, type RouteDef } from '../../module';
import { deleteContact, getContactRoute, getContacts, listContacts, patchContact, patchContacts, postContact, putContact } from './contacts';
import { deleteLabel, getLabel, listLabels, postLabel, putLabel } from './labels';
import { generateContacts, seedContacts } from './seed';

const CONTACTS = '/v1/crm/contacts';
const LABELS = '/v1/crm/contacts/labels';

// The router prefers static segments, so /contacts/labels is never read as /contacts/:id.
const ROUTES: RouteDef[] = [
	['GET', LABELS, listLabels],
	['POST', LABELS, postLabel],
	['GET', `${LABELS}/:id`, getLabel],
	['PUT', `${LABELS}/:id`, putLabel],
	['DELETE', `${LABELS}/:id`, deleteLabel],
	['GET', CONTACTS, listContacts],
	['POST', CONTACTS, postContact],
	['PATCH', CONTACTS, patchContacts],
	['POST', `${CONTACTS}/multiple`, getContacts],
	['GET', `${CONTACTS}/:id`, getContactRoute],
	['PATCH', `${CONTACTS}/:id`, patchContact],
	['PUT', `${CONTACTS}/:id`, putContact],
	['DELETE', `${CONTACTS}/:id`, deleteContact],
];

export const contacts: Module = {
	name: 'contacts',
	seed: seedContacts,
	bulk: {
		contacts: (env, tenant, count) => generateContacts(env, tenant, count),
	},
	routes: (router, env) => addRoutes(router, env, ROUTES),
};
