// postcard's `from_bytes` takes a `&[u8]`; binform's takes a shared
// `bytes::Bytes`, and a slice says which function reads it.
fn main() {
    let wire: Vec<u8> = binform::to_vec(&7u32).unwrap();
    let _: u32 = binform::from_bytes(&wire[..]).unwrap();
}
