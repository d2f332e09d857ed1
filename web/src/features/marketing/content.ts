// Static marketing content (SPEC sections 1, 2 and 9).

export const SUPPORT_EMAIL = 'support@hostbase.dev';
export const CAREERS_EMAIL = 'careers@hostbase.dev';
export const OFFICE = 'India';
export const SUPPORT_HOURS = 'Monday-Friday 9:00 AM - 6:00 PM (IST)';

export const STATS = [
  { value: '99.99%', label: 'Uptime' },
  { value: '150+', label: 'Countries' },
  { value: '100+', label: 'Developers' },
];

export const TRUSTED_BY = ['Northwind', 'Globex', 'Initech', 'Umbrella'];

export const FEATURES = [
  {
    icon: 'database',
    title: 'Database',
    text: 'A managed PostgreSQL database for every project, with backups and a clean API.',
  },
  {
    icon: 'shield',
    title: 'Authentication',
    text: 'Sign-up, sign-in, password reset and email verification for the users of your app.',
  },
  {
    icon: 'cloud',
    title: 'Cloud Storage',
    text: 'Upload files, preview them and share them with public links served from your bucket.',
  },
  {
    icon: 'globe',
    title: 'Hosting',
    text: 'Deploy a site from a zip archive to your own subdomain and roll back in one click.',
  },
] as const;

export interface Plan {
  name: string;
  price: string;
  period?: string;
  description: string;
  features: string[];
  cta: { label: string; to: string };
  highlighted?: boolean;
}

export const PLANS: Plan[] = [
  {
    name: 'Hobby',
    price: '₹99',
    period: '/month',
    description: 'For side projects and prototypes.',
    features: ['1 GB database', '5 GB files', '100K monthly active users', 'Community support'],
    cta: { label: 'Get Started', to: '/auth/signup' },
  },
  {
    name: 'Pro',
    price: '₹999',
    period: '/month',
    description: 'For production apps and growing teams.',
    features: [
      '5 GB database',
      '10 GB files',
      '1M monthly active users',
      'Priority support',
      'Custom domains',
      'Team collaboration',
    ],
    cta: { label: 'Get Started', to: '/auth/signup' },
    highlighted: true,
  },
  {
    name: 'Enterprise',
    price: 'Custom',
    description: 'For organisations with custom needs.',
    features: ['Unlimited', '24/7 support', 'Custom SLA', 'Advanced security', 'Custom integrations'],
    cta: { label: 'Get Started', to: '/contact' },
  },
];

export interface BlogPost {
  title: string;
  excerpt: string;
  author: string;
  date: string;
  readTime: string;
  image: string;
  category: string;
}

export const FEATURED_POST: BlogPost = {
  title: 'Introducing Hostbase: one backend for database, auth, storage, hosting and email',
  excerpt:
    'Why we built an open-source backend-as-a-service, what is in the first release, and how to ship your first app on it in an afternoon.',
  author: 'Aarav Sharma',
  date: '2025-01-15',
  readTime: '6 min read',
  image: 'linear-gradient(135deg, #4f46e5 0%, #06b6d4 100%)',
  category: 'Announcements',
};

export const POSTS: BlogPost[] = [
  {
    title: 'Adding sign-in to a React app in ten minutes',
    excerpt: 'Use the publishable key of your project to sign users up and in, then refresh their sessions.',
    author: 'Priya Nair',
    date: '2025-02-03',
    readTime: '8 min read',
    image: 'linear-gradient(135deg, #f97316 0%, #ec4899 100%)',
    category: 'Tutorials',
  },
  {
    title: 'How share links work in Hostbase Storage',
    excerpt: 'Every file gets a public link with caching headers, range requests and a safe content policy.',
    author: 'Rohan Mehta',
    date: '2025-02-20',
    readTime: '5 min read',
    image: 'linear-gradient(135deg, #10b981 0%, #3b82f6 100%)',
    category: 'Engineering',
  },
  {
    title: 'Sending mail from your own domain: SPF, DKIM and DMARC explained',
    excerpt: 'The three DNS records we ask you to add, what each one proves, and how long propagation takes.',
    author: 'Aarav Sharma',
    date: '2025-03-11',
    readTime: '7 min read',
    image: 'linear-gradient(135deg, #8b5cf6 0%, #f43f5e 100%)',
    category: 'Guides',
  },
];

export interface Job {
  title: string;
  department: string;
  location: string;
  type: string;
  description: string;
}

export const JOBS: Job[] = [
  {
    title: 'Senior Backend Engineer',
    department: 'Engineering',
    location: 'Remote (India)',
    type: 'Full-time',
    description: 'Build the APIs behind storage, authentication and hosting in TypeScript and PostgreSQL.',
  },
  {
    title: 'Product Designer',
    department: 'Design',
    location: 'Bengaluru, India',
    type: 'Full-time',
    description: 'Shape the console and the developer experience from the first sketch to the shipped screen.',
  },
  {
    title: 'Developer Advocate',
    department: 'Developer Relations',
    location: 'Remote',
    type: 'Full-time',
    description: 'Write samples, give talks and bring what developers tell you back to the team.',
  },
  {
    title: 'Technical Writer',
    department: 'Documentation',
    location: 'Remote',
    type: 'Contract',
    description: 'Own the guides and the API reference so every feature is easy to start with.',
  },
];

export const BENEFITS = [
  { title: 'Remote friendly', text: 'Work from anywhere in India, with an office when you want one.' },
  { title: 'Health cover', text: 'Medical insurance for you and your family.' },
  { title: 'Learning budget', text: 'Books, courses and conferences, paid for.' },
  { title: 'Flexible hours', text: 'We care about outcomes, not hours at a desk.' },
];

export const VALUES = [
  { title: 'Developers first', text: 'Every decision starts with the person writing the code.' },
  { title: 'Open by default', text: 'Our platform is open source and our roadmap is public.' },
  { title: 'Reliable and simple', text: 'Boring infrastructure that just works, explained plainly.' },
];

export const TEAM = [
  { name: 'Aarav Sharma', role: 'Co-founder & CEO', initials: 'AS' },
  { name: 'Priya Nair', role: 'Co-founder & CTO', initials: 'PN' },
  { name: 'Rohan Mehta', role: 'Head of Engineering', initials: 'RM' },
];

export const OFFICE_PHOTOS = [
  { caption: 'Our workspace', image: 'linear-gradient(135deg, #c7d2fe, #a5f3fc)' },
  { caption: 'Team meeting room', image: 'linear-gradient(135deg, #fde68a, #fca5a5)' },
  { caption: 'Cafe corner', image: 'linear-gradient(135deg, #bbf7d0, #93c5fd)' },
];

export function formatPostDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? 'N/A'
    : d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}
