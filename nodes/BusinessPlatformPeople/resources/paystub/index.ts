/** Paystubs of an employee — /v1/people-pay-run/paystubs/employee/{employeeId} (regional). */

import type { Resource } from '../../../shared/engine/model';
import { searchPeopleUsers } from '../../methods/users';
import { getAllPaystub } from './getAll';

export const paystubResource: Resource = {
	value: 'paystub',
	name: 'Paystub',
	description: 'Pay statements of employees',
	operations: [getAllPaystub],
	methods: { listSearch: { searchPeopleUsers } },
};
