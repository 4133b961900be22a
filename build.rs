// The default skills are embedded with include_dir, which cannot tell cargo
// to rebuild when a file is added under skills/; this does.
fn main() {
    println!("cargo:rerun-if-changed=skills");
}
