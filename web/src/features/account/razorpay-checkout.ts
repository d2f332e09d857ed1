// Razorpay's checkout.js, loaded once when a developer pays with Razorpay (the CSP allows its
// origin only when the server has Razorpay keys).
export interface RazorpayOptions {
  key: string;
  order_id: string;
  amount: number;
  currency: string;
  name: string;
  description?: string;
  prefill?: { email?: string };
  handler: (response: { razorpay_payment_id: string; razorpay_order_id: string; razorpay_signature: string }) => void;
}

type RazorpayCtor = new (options: RazorpayOptions) => { open(): void };

let loading: Promise<RazorpayCtor> | undefined;

export function loadRazorpay(): Promise<RazorpayCtor> {
  const existing = (window as { Razorpay?: RazorpayCtor }).Razorpay;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise<RazorpayCtor>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'https://checkout.razorpay.com/v1/checkout.js';
    script.async = true;
    script.onload = () => {
      const ctor = (window as { Razorpay?: RazorpayCtor }).Razorpay;
      if (ctor) resolve(ctor);
      else reject(new Error('Razorpay checkout did not load'));
    };
    script.onerror = () => {
      loading = undefined;
      reject(new Error('Razorpay checkout could not be loaded; try again in a moment'));
    };
    document.head.appendChild(script);
  });
  return loading;
}
