// Razorpay's checkout.js runs in the console only when the platform has Razorpay keys: its script
// and frame origins are in the console's Content-Security-Policy then, and never otherwise.
import { consoleDirectives } from '../../http/security-headers';

const razorpay = { keyId: 'rzp_test_x', keySecret: 's', apiUrl: 'https://api.razorpay.com' };

test('with Razorpay keys the checkout script and its frames are allowed', () => {
  const d = consoleDirectives({ publicUrl: 'https://hostbase.example', razorpay });
  expect(d['script-src']).toContain('https://checkout.razorpay.com');
  expect(d['frame-src']).toEqual(['https://api.razorpay.com', 'https://checkout.razorpay.com']);
});

test('without them (the test provider) nothing of Razorpay is allowed', () => {
  const d = consoleDirectives({ publicUrl: 'https://hostbase.example' });
  expect(JSON.stringify(d)).not.toContain('razorpay');
  expect(d['frame-src']).toBeUndefined();
});
