/** A contact body with every field the API takes, and what GET shows of it (spec, Contact). */
export const FULL_CONTACT = {
  first_name: 'Ann',
  last_name: 'Lee',
  email: 'ann@example.com',
  phone: '615-555-0148',
  company: 'Lee Adjusting',
  type: 'adjuster',
  trades: ['roofing', 'gutters'],
  address: '12 Elm St',
  city: 'Franklin',
  state: 'TN',
  postal_code: '37064',
  notes: 'Call after 5',
  claim_number: 'CLM-9',
  adjuster_type: 'independent',
  adjuster_extension: '204',
};

export const FULL_CONTACT_SHOWN = {
  ...FULL_CONTACT,
  full_name: 'Ann Lee',
  phone: '(615) 555-0148',
};
