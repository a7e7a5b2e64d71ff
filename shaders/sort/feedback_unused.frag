// The fragment stage of the programs that transform feedback records with
// the rasterizer discarding everything: it never runs. It is there because
// Mesa keeps a stage's last program referenced through the programs that
// lack that stage (until one that has it, or program 0 after it, is used),
// so a program without one would outlive its deletion, and the host's
// program could too.
void main() {
}
