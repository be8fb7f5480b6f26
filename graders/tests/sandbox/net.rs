// Network attempts: TCP connect and UDP send to loopback.
use std::net::{TcpStream, UdpSocket};

fn main() {
    match TcpStream::connect("127.0.0.1:22") {
        Ok(_) => println!("tcp: connected"),
        Err(e) => println!("tcp: denied ({e})"),
    }
    let udp = UdpSocket::bind("127.0.0.1:0").and_then(|s| s.send_to(b"x", "127.0.0.1:53"));
    match udp {
        Ok(_) => println!("udp: sent"),
        Err(e) => println!("udp: denied ({e})"),
    }
}
