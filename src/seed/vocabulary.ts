// Words a storm-restoration contractor's workspace is made of: where it works, what it is called.
// Each family's own words are in its seed.ts.

/** Markets in the hail belt, by a ZIP at their centre (zipcodes fills city, state, position). */
export const MARKETS = [
  { zip: '75201', timezone: 'America/Chicago' }, // Dallas
  { zip: '76102', timezone: 'America/Chicago' }, // Fort Worth
  { zip: '73102', timezone: 'America/Chicago' }, // Oklahoma City
  { zip: '74103', timezone: 'America/Chicago' }, // Tulsa
  { zip: '67202', timezone: 'America/Chicago' }, // Wichita
  { zip: '68102', timezone: 'America/Chicago' }, // Omaha
  { zip: '80202', timezone: 'America/Denver' }, // Denver
  { zip: '80903', timezone: 'America/Denver' }, // Colorado Springs
  { zip: '78205', timezone: 'America/Chicago' }, // San Antonio
  { zip: '55401', timezone: 'America/Chicago' }, // Minneapolis
  { zip: '37203', timezone: 'America/Chicago' }, // Nashville
  { zip: '63101', timezone: 'America/Chicago' }, // St. Louis
] as const;

export const COMPANY_LEADS = [
  'Summit',
  'Lone Star',
  'Heartland',
  'Prairie',
  'Front Range',
  'Red River',
  'Ironclad',
  'Keystone',
  'Pinnacle',
  'Cornerstone',
  'Blue Sky',
  'Trailhead',
  'Stormline',
  'High Plains',
  'Liberty',
  'Patriot',
  'Anchor',
  'Northstar',
  'Granite',
  'Redline',
] as const;

export const COMPANY_TRADES = [
  'Roofing & Restoration',
  'Roofing',
  'Exteriors',
  'Storm Restoration',
  'Roofing & Siding',
  'Construction',
  'Restoration Group',
  'Roofing Co.',
] as const;
