// findBy…/waitFor give the UI 5 s, not 1 s: on a loaded 2-core CI machine a lazy chunk (the
// password-strength dictionaries) can take longer than a second to load in jsdom. A test that
// waits for something that never comes still fails.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });
