/** Campaign categories — /v1/crm/campaign/category. */

import type { Resource } from '../../../shared/engine/model';
import { searchCategories } from '../../methods/categories';
import { createCategory } from './create';
import { deleteCategory } from './delete';
import { getCategory } from './get';
import { getAllCategory } from './getAll';
import { updateCategory } from './update';

export const categoryResource: Resource = {
	value: 'category',
	name: 'Category',
	description: 'Categories that group campaigns and email templates',
	operations: [createCategory, getCategory, getAllCategory, updateCategory, deleteCategory],
	methods: { listSearch: { searchCategories } },
};
