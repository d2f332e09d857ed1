export default async function globalTeardown(): Promise<void> {
  // Templates are kept between runs on purpose (keyed by the migrations' hash).
}
