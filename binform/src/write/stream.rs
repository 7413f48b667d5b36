//! A streaming encode ([`to_writer`](crate::to_writer)): the sink the
//! writer hands complete bytes to, so the whole value is never buffered.

/// A streaming encode's state: the sink, the first error it reported
/// (the encode fails with it), how much went to it, and how many length
/// frames are open (their placeholders must stay in the buffer until they
/// are filled in).
#[cfg(feature = "std")]
pub(crate) struct Stream<'a> {
    pub(super) sink: &'a mut dyn std::io::Write,
    pub(super) error: Option<std::io::Error>,
    pub(super) flushed: usize,
    pub(super) pinned: u32,
}

#[cfg(feature = "std")]
impl<'a> Stream<'a> {
    pub(crate) fn new(sink: &'a mut dyn std::io::Write) -> Self {
        Stream {
            sink,
            error: None,
            flushed: 0,
            pinned: 0,
        }
    }

    /// Writes `bytes` unless an earlier write failed.
    pub(super) fn send(&mut self, bytes: &[u8]) {
        if self.error.is_none() {
            if let Err(e) = self.sink.write_all(bytes) {
                self.error = Some(e);
            }
        }
        self.flushed += bytes.len();
    }
}

/// A streaming encode hands over its buffer at about this size.
#[cfg(feature = "std")]
pub(crate) const STREAM_BUFFER: usize = 64 * 1024;
