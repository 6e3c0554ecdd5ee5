/** Word lists for realistic-looking benchmark records (names repeat, as they do in a real CRM). */

export const FIRST_NAMES = `ada alan amara anna aria arjun ben bianca carla chen chloe dara david diego elena emil emma
ethan fatima felix freya gabriel grace hana hugo ibrahim ines isaac ivy jack jada james jonas julia kai karin kenji
layla leo lina lucas lucia maya mei mia mohamed nadia naomi nina noah olga omar oscar paula priya rafael rosa ruth
sam sara sofia stefan tara theo uma victor wei yara yusuf zara zoe`.split(/\s+/);

export const LAST_NAMES = `abbott adeyemi alvarez andersen bauer becker bennett bianchi brennan castillo chen cohen
costa dubois duarte eriksen ferrari fischer fontaine garcia gomez gupta haddad hansen hartmann hoffmann ivanova
jansen jensen kaminski kapoor keller kim kowalski kruger laurent lefebvre lindqvist lopez lovelace martens meyer
moreau morgan murphy nakamura nielsen novak obrien okafor olsen park patel perez petrov quinn ramos reyes richter
rossi russo sato schmidt silva singh sorensen suzuki tanaka torres turner vargas vasquez weber wilson wright
yamamoto young zhang ziegler`.split(/\s+/);

export const COMPANY_HEADS = `acme apex arbor atlas aurora beacon birch blue bright cedar clear cobalt copper
crest delta ember evergreen falcon fjord granite harbor helix horizon iris juniper keystone lumen maple meridian
nimbus north nova oak onyx orbit pacific peak pine polar prism quartz radiant redwood river sage sierra silver
solstice spruce summit terra tidal vertex willow zenith`.split(/\s+/);

export const COMPANY_TAILS = `analytics bio capital cloud consulting data dynamics energy foods freight health
industries labs logistics media motors networks partners pharma robotics security software solutions studios
systems technologies ventures works`.split(/\s+/);

export const JOB_TITLES = [
  'CEO', 'CTO', 'CFO', 'VP Sales', 'VP Engineering', 'Head of Marketing', 'Head of Operations', 'Product Manager',
  'Engineering Manager', 'Account Executive', 'Sales Director', 'Procurement Lead', 'Data Scientist', 'Designer',
  'Software Engineer', 'Operations Analyst', 'Customer Success Manager', 'General Counsel', 'Office Manager', 'Founder',
];

export const PRODUCTS = ['platform licence', 'renewal', 'expansion', 'pilot', 'enterprise plan', 'support contract', 'integration', 'onboarding'];

export const DESCRIPTION_PARTS = [
  'builds tools for', 'sells to', 'serves', 'partners with', 'consults for', 'operates across', 'invests in',
];

export const MARKETS = ['retailers', 'hospitals', 'banks', 'universities', 'logistics firms', 'manufacturers', 'media groups', 'startups', 'governments', 'insurers'];
