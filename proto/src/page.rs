//! `RecordedEventPage` (ledger.proto) written by hand, so that a server can send events it
//! encoded once, while reading them, instead of building each event's message and having tonic
//! size and encode it again. On the wire it is the generated message exactly: field 1,
//! repeated `RecordedEvent`.

use crate::v1::RecordedEvent;
use prost::bytes::{Buf, BufMut, Bytes, BytesMut};
use prost::encoding::{encode_key, encode_varint, encoded_len_varint, message, skip_field, DecodeContext, WireType};
use prost::DecodeError;

/// Consecutive events of a read, in order.
#[derive(Clone, PartialEq, Default, Debug)]
pub struct RecordedEventPage {
    /// The page's events: those a client decoded, or those a server sends as messages.
    pub events: Vec<RecordedEvent>,
    /// Events already encoded as this message's field 1 (see [`RecordedEventPage::encode_event`])
    /// or field 2 ([`RecordedEventPage::encode_stored`]), sent after `events`; a decoded page has
    /// none (they are in `events` and `stored`).
    pub encoded: Bytes,
    /// Field 2: the page's events in the ledger's stored encoding, a run of records
    /// (`ledger::envelope::decode_run`), when the read asked for it.
    pub stored: Bytes,
}

impl RecordedEventPage {
    /// A page of events encoded by [`RecordedEventPage::encode_event`].
    pub fn from_encoded(encoded: Bytes) -> Self {
        RecordedEventPage { events: Vec::new(), encoded, stored: Bytes::new() }
    }

    /// The bytes [`RecordedEventPage::encode_stored`] writes for a run of `len` bytes.
    pub fn encoded_stored_len(len: usize) -> usize {
        1 + encoded_len_varint(len as u64) + len
    }

    /// Writes a run of stored records as field 2: a whole page's body.
    pub fn encode_stored(run: &[u8], page: &mut BytesMut) {
        encode_key(2, WireType::LengthDelimited, page);
        encode_varint(run.len() as u64, page);
        page.put_slice(run);
    }

    /// The bytes [`RecordedEventPage::encode_event`] writes for an event whose own encoding is
    /// `len` bytes long.
    pub fn encoded_event_len(len: usize) -> usize {
        1 + encoded_len_varint(len as u64) + len
    }

    /// Appends `event`, whose `encoded_len()` is `len`, as one entry of field 1.
    pub fn encode_event(event: &RecordedEvent, len: usize, page: &mut BytesMut) {
        encode_key(1, WireType::LengthDelimited, page);
        encode_varint(len as u64, page);
        prost::Message::encode_raw(event, page);
    }
}

impl prost::Message for RecordedEventPage {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        message::encode_repeated(1, &self.events, buf);
        if !self.stored.is_empty() {
            prost::encoding::bytes::encode(2, &self.stored, buf);
        }
        buf.put_slice(&self.encoded);
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl Buf,
        ctx: DecodeContext,
    ) -> Result<(), DecodeError> {
        match tag {
            1 => message::merge_repeated(wire_type, &mut self.events, buf, ctx),
            // Taken without a copy where the buffer allows (tonic's does).
            2 => prost::encoding::bytes::merge(wire_type, &mut self.stored, buf, ctx),
            _ => skip_field(wire_type, tag, buf, ctx),
        }
    }

    fn encoded_len(&self) -> usize {
        let stored = if self.stored.is_empty() { 0 } else { prost::encoding::bytes::encoded_len(2, &self.stored) };
        message::encoded_len_repeated(1, &self.events) + stored + self.encoded.len()
    }

    fn clear(&mut self) {
        self.events.clear();
        self.encoded = Bytes::new();
        self.stored = Bytes::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v1::{Envelope, Event};
    use prost::Message;

    fn event(seq: u64) -> RecordedEvent {
        RecordedEvent {
            envelope: Some(Envelope {
                stream: "game/g".into(),
                seq,
                position: seq + 10,
                event_id: format!("e{seq}"),
                recorded_at_ms: 1_700_000_000_000,
                actor: "table-1".into(),
                prev_hash: vec![1; 32],
                hash: vec![2; 32],
            }),
            event: Some(Event::default()),
        }
    }

    #[test]
    fn encoded_events_are_the_same_bytes_as_events_and_decode_back() {
        let events: Vec<RecordedEvent> = (1..=300).map(event).collect();
        let as_messages = RecordedEventPage { events: events.clone(), ..Default::default() }.encode_to_vec();
        let mut encoded = BytesMut::new();
        for e in &events {
            let len = e.encoded_len();
            let before = encoded.len();
            RecordedEventPage::encode_event(e, len, &mut encoded);
            assert_eq!(encoded.len() - before, RecordedEventPage::encoded_event_len(len));
        }
        let page = RecordedEventPage::from_encoded(encoded.freeze());
        assert_eq!(page.encoded_len(), as_messages.len());
        assert_eq!(page.encode_to_vec(), as_messages, "the same wire bytes either way");
        let decoded = RecordedEventPage::decode(as_messages.as_slice()).unwrap();
        assert_eq!(decoded.events, events);
        assert!(decoded.encoded.is_empty());
        // Both halves at once: messages first, then the encoded ones.
        let mixed =
            RecordedEventPage { events: events[..1].to_vec(), encoded: page.encoded.clone(), ..Default::default() };
        assert_eq!(RecordedEventPage::decode(mixed.encode_to_vec().as_slice()).unwrap().events.len(), 301);
    }

    #[test]
    fn a_stored_run_is_field_2_and_decodes_back_without_a_copy() {
        let run: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
        let mut encoded = BytesMut::new();
        RecordedEventPage::encode_stored(&run, &mut encoded);
        assert_eq!(encoded.len(), RecordedEventPage::encoded_stored_len(run.len()));
        let as_field = RecordedEventPage { stored: Bytes::from(run.clone()), ..Default::default() }.encode_to_vec();
        assert_eq!(encoded.as_ref(), as_field.as_slice(), "the same wire bytes either way");
        let wire = encoded.freeze();
        let decoded = RecordedEventPage::decode(wire.clone()).unwrap();
        assert_eq!(decoded.stored, run);
        assert!(decoded.events.is_empty());
        let inside = wire.as_ptr_range();
        assert!(inside.contains(&decoded.stored.as_ptr()), "sliced out of the received buffer, not copied");
    }
}
