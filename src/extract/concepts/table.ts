/**
 * Shape of a per-language concept table: words that say what a number or a link in a message is
 * FOR, beyond the rules' keyword classes (languages/table.ts). The rules do not read these; the
 * learned scorer does (learned/features.ts): each concept near a candidate and anywhere in the
 * message is a feature, the same feature in every language, so what the scorer learns of
 * "expired" in Spanish holds for "wygasł" in Polish although no Polish expired code was in its
 * training data.
 *
 * Word syntax as in languages/table.ts: written naturally (accents, any case), folded on load; a
 * `*` at either end lets the word continue on that side (`expir*`, `*kode`); without `*`, words of
 * Latin, Greek and Cyrillic script stand alone, words of other scripts match anywhere. A match
 * inside a longer match of another concept is dropped.
 */

export const CONCEPTS = [
  'signin',
  'codeword',
  'enter',
  'spent',
  'fresh',
  'handover',
  'device',
  'meeting',
  'booking',
  'gift',
  'receipt',
  'porting',
  'parcel',
] as const;
export type Concept = (typeof CONCEPTS)[number];

export type ConceptTable = { readonly lang: string } & {
  /**
   * signin: the purposes a one-time code or link serves — sign in, log in, verify, verification,
   *   confirm (an address, a number, a device, a change), authenticate, activate, register, sign
   *   up, two-step / 2FA, reset a password or PIN, recover an account, authorise or approve a
   *   payment, transfer or purchase, sign a document, link a device or card, unlock a statement.
   * codeword: words that name a one-time code — code, OTP, one-time password / PIN / code,
   *   passcode, security code, verification code, confirmation code, token, TAC, mTAN, PIN.
   * enter: asking the reader to type it into a website or app — enter, type, input, key in, paste,
   *   fill in, use this code, on the screen, in the app, on the website.
   * spent: the code or link is expired, used, cancelled, invalid, no longer valid, replaced.
   * fresh: a new, replacement or latest code ("here is your new code", "replaces the previous").
   * handover: give, tell, show or read out a code to a person — driver, courier, delivery agent,
   *   cashier, staff, front desk, reception, conductor, postman, guard, technician; at pickup.
   * device: a physical place or device where a code is keyed in or shown — locker, parcel box or
   *   terminal, pickup point, keypad, door, gate, barrier, lock, key safe, intercom, alarm, ATM,
   *   kiosk, vending machine, meter, charger.
   * meeting: meeting, webinar, video call, conference, join, dial-in, meeting ID, host.
   * booking: booking, reservation, itinerary, flight, boarding, seat, check-in, ticket, PNR, room,
   *   stay, rental, appointment, event.
   * gift: gift card, voucher, e-gift, store credit, prepaid or top-up card, redeem, card balance.
   * receipt: receipt, invoice, bill, statement, total, subtotal, VAT, paid, payment received,
   *   transaction id, authorisation or approval code printed on a receipt.
   * porting: moving a phone number to another carrier — port-out, number transfer, PAC, NIP.
   * parcel: parcel, package, shipment, consignment, delivery, tracking, courier service.
   */
  readonly [K in Concept]: readonly string[];
};
