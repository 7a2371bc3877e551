/**
 * People users — /v1/people/users… (regional). Ids are strings; int64 fields
 * come back as numbers. The user's fields are grouped as a person fills the
 * platform's form: Identity, Dates, Personal, Address, Payment Details,
 * Compensation, Other.
 */

import type { Resource } from '../../../shared/engine/model';
import { getPeopleUsers, searchPeopleUsers } from '../../methods/users';
import { createUser } from './create';
import { deleteUser } from './delete';
import { getAllUser } from './getAll';
import { getApproversUser } from './getApprovers';
import { getDesignationsUser } from './getDesignations';
import { getTaxDeclarationsUser } from './getTaxDeclarations';
import { searchUser } from './search';
import { syncBeneficiariesUser } from './syncBeneficiaries';
import { updateUser } from './update';
import { updateBeneficiaryStatusUser } from './updateBeneficiaryStatus';
import { updateFieldsUser } from './updateFields';

export const userResource: Resource = {
	value: 'user',
	name: 'User',
	description: 'Employees and contractors',
	operations: [
		createUser,
		updateUser,
		updateFieldsUser,
		deleteUser,
		searchUser,
		getAllUser,
		getApproversUser,
		getDesignationsUser,
		updateBeneficiaryStatusUser,
		syncBeneficiariesUser,
		getTaxDeclarationsUser,
	],
	methods: { listSearch: { searchPeopleUsers }, loadOptions: { getPeopleUsers } },
};
