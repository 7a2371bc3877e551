/** Pickers of the People node for users (people and payroll endpoints are served by the regional base URL when set). */
import type { IDataObject } from 'n8n-workflow';

import { firstEntries, listSearch, loadOptions, searchPage } from '../../shared/pickers';
import type { ApiRequest } from '../../shared/transport';

const userLabel = (u: IDataObject) => {
	const name = String(u.name || [u.firstName, u.lastName].filter(Boolean).join(' ') || u.userId);
	return `${name}${u.emailId ? ` <${String(u.emailId)}>` : ''}${u.employeeId ? ` (${String(u.employeeId)})` : ''}`;
};

const usersRequest = (search?: string): ApiRequest => ({
	method: 'GET',
	path: '/v1/people/users',
	regional: true,
	qs: {
		searchString: search || undefined,
		field: 'name',
		order: 'asc',
		ignTeamData: true,
		ignRoles: true,
	},
});

const userOption = (u: IDataObject) => ({ name: userLabel(u), value: String(u.userId) });

export const searchPeopleUsers = listSearch(
	async (scope, filter, paginationToken) =>
		await searchPage(scope, usersRequest(filter), 'peopleUsers', paginationToken, userOption),
);

export const getPeopleUsers = loadOptions(async (scope) =>
	(await firstEntries(scope, usersRequest(), 'peopleUsers')).map(userOption),
);
