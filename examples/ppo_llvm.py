"""PPO with action masks on rlopt's LLVM pass-ordering environment, in one
file (CleanRL's layout). Reward: instruction-count reduction relative to -Oz,
so an episode's return of 1.0 matches -Oz.

    PYTHONPATH=build/python python3 examples/ppo_llvm.py --iterations 50
"""

import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

import rlopt


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iterations", type=int, default=50)
    p.add_argument("--steps", type=int, default=256,
                   help="environment steps per iteration")
    p.add_argument("--episode-length", type=int, default=45)
    p.add_argument("--suite", default="rlopt-v0")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


class Agent(nn.Module):
    def __init__(self, features, actions):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(features, 256), nn.Tanh(),
                                  nn.Linear(256, 256), nn.Tanh())
        self.actor = nn.Linear(256, actions)
        self.critic = nn.Linear(256, 1)

    def value(self, obs):
        return self.critic(self.body(obs)).squeeze(-1)

    def act(self, obs, mask, action=None):
        hidden = self.body(obs)
        logits = self.actor(hidden).masked_fill(~mask, -1e9)
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return (action, dist.log_prob(action), dist.entropy(),
                self.critic(hidden).squeeze(-1))


def normalize(obs):
    # Autophase counts span orders of magnitude.
    return torch.as_tensor(np.log1p(obs), dtype=torch.float32)


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    env = rlopt.make("llvm-v0", suite=args.suite, split="train",
                     episode_length=args.episode_length,
                     reward="IrInstructionCountOz")
    agent = Agent(env.observation_space.shape[0], env.action_space.n)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)

    n = args.steps
    obs_buf = torch.zeros((n, env.observation_space.shape[0]))
    mask_buf = torch.zeros((n, env.action_space.n), dtype=torch.bool)
    actions = torch.zeros(n, dtype=torch.long)
    logprobs, rewards = torch.zeros(n), torch.zeros(n)
    dones, values = torch.zeros(n), torch.zeros(n)

    obs, info = env.reset(seed=args.seed)
    episode_return, returns = 0.0, []
    start = time.time()
    for iteration in range(1, args.iterations + 1):
        # Rollout.
        for t in range(n):
            obs_buf[t] = normalize(obs)
            mask_buf[t] = torch.as_tensor(info["action_mask"] > 0)
            with torch.no_grad():
                action, logprob, _, value = agent.act(obs_buf[t],
                                                      mask_buf[t])
            actions[t], logprobs[t], values[t] = action, logprob, value
            obs, reward, terminated, truncated, info = env.step(int(action))
            rewards[t] = reward
            episode_return += reward
            dones[t] = float(terminated or truncated)
            if terminated or truncated:
                returns.append(episode_return)
                episode_return = 0.0
                obs, info = env.reset()

        # Generalized advantage estimation.
        with torch.no_grad():
            next_value = agent.value(normalize(obs))
            advantages = torch.zeros(n)
            last = 0.0
            for t in reversed(range(n)):
                following = next_value if t == n - 1 else values[t + 1]
                live = 1.0 - dones[t]
                delta = rewards[t] + args.gamma * following * live - values[t]
                last = delta + args.gamma * args.gae_lambda * live * last
                advantages[t] = last
            targets = advantages + values

        # Clipped policy and value update.
        size = n // args.minibatches
        for _ in range(args.epochs):
            for batch in torch.randperm(n).split(size):
                _, new_logprob, entropy, new_value = agent.act(
                    obs_buf[batch], mask_buf[batch], actions[batch])
                ratio = (new_logprob - logprobs[batch]).exp()
                adv = advantages[batch]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(
                    -adv * ratio,
                    -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                value_loss = 0.5 * (new_value - targets[batch]).pow(2).mean()
                loss = (policy_loss + 0.5 * value_loss
                        - args.entropy * entropy.mean())
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()

        recent = returns[-20:]
        mean = float(np.mean(recent)) if recent else float("nan")
        print(f"iteration {iteration}: steps {iteration * n}, "
              f"episodes {len(returns)}, mean return (last 20) {mean:.3f}, "
              f"loss {loss.item():.4f}, {time.time() - start:.1f}s",
              flush=True)
    env.close()


if __name__ == "__main__":
    main()
